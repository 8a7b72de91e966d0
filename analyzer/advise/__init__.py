"""The advice: which warnings a project should turn on, from the measurements of every
family (flags, warnings, ub, overhead), and the chosen set written into its build."""
