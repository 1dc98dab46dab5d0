// purpose: The document names codifications in the graph give beside a number (their provenance lines: "Luật Bảo hiểm y tế" -> 25/2008/QH12), for resolving names in later loads.
// mode: read
// returns: name, number
MATCH (c:Document) WHERE c.cited_names IS NOT NULL
UNWIND c.cited_names AS entry
WITH split(entry, '|') AS parts
RETURN DISTINCT parts[0] AS name, parts[2] AS number
ORDER BY name, number
