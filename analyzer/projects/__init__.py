"""Building a real project: the base the overhead and warnings families stand on."""
