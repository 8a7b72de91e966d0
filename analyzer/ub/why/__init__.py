"""Why two configurations of a case diverge (``ub why``): the optimisation pass behind
it, found by bisecting the passes (why), the search run for every divergent cell
(whyrun), and the answers as text and as a table over compilers (why_text, why_table)."""
