"""The match layer's read side: selectors (matches, states, a seat's page as a SeatView) and the views of a match
agents are given. GET requests and pages only read through here.
"""
