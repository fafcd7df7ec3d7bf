"""The match layer's write side: the one match service (services.apply_action) and the modules it is made of; every
change to a match goes through here, in a transaction, with a version check.
"""
