"""warnscope's compiler runners: the top-level CLI, the UB corpus runner, the
build-overhead matrix, the GCC plugin driver and the report site builder."""
