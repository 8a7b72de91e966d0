"""warnscope's shared base: the one database (opening it, its schema and migrations),
the errors every command reports, where the cache is, the private apt state and safe
extraction. The three families build on it (``flagdb`` for flags, ``analyzer.ub`` and
``analyzer.overhead``); it imports none of them."""
