"""Meta-evaluation: how well a metric agrees with human judgments of GEC systems.

Readers of the human judgment files (SEEDA, GJG15, Napoles et al. 2015), human system
rankings computed from them (Expected Wins, TrueSkill), sentence-level pairwise agreement
and a scatter plot of metric against human scores.
"""
