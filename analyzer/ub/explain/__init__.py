"""The generated code of a cell, explained (``ub explain``): the labels of what the
optimiser did (codelabels), one cell's or two cells' code side by side (explain) and its
text (explain_text), over the code the run kept (:mod:`analyzer.ub.disasm`)."""
