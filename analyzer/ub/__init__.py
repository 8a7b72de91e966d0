"""The undefined-behaviour corpus runner: corpus, compile, run, classify, store, report."""
