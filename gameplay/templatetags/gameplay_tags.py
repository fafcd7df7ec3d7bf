from django import template

register = template.Library()


@register.filter
def lookup(mapping, key):
    """{{ clicks|lookup:cell.name }}: dictionary access with a variable key."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None
