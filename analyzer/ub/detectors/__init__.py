"""Every detector of undefined behaviour scored on the corpus (``ub detectors``):
compiler warnings, sanitizers and static analyzers run over the cases and their fixed
twins (detect, analyzers), what a report claims (detectors), the scores by catches and
false alarms (scores) and their SARIF log (sarif)."""
