"""Statistics and figures for study exports. Pure Python + scipy + Pillow: nothing here imports Django, so
the same functions can be run on an exported CSV outside the site."""

from .anova import AnovaResult, one_way_anova
from .boxplots import box_plot, box_stats
from .kruskal import KruskalResult, kruskal_wallis
from .report import Analysis, Outcome, analyse
from .tukey import TukeyPair, tukey_pairs

__all__ = [
    "Analysis",
    "AnovaResult",
    "KruskalResult",
    "Outcome",
    "TukeyPair",
    "analyse",
    "box_plot",
    "box_stats",
    "kruskal_wallis",
    "one_way_anova",
    "tukey_pairs",
]
