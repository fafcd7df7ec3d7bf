"""The match layer's web side: views, forms, the match socket (consumer, frames, limits, presence), and what a page
is drawn from (rendering). Thin: writes go to gameplay.writes, reads to gameplay.reads.
"""
