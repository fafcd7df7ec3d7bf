"""Human-subject studies: consent, conditions, participant links, rounds, surveys and researcher exports."""
