// purpose: The bridges of the given topics with both topics' titles and summaries (input to LLM bridge typing).
// mode: read
// param topic_ids: list<string> -- topic ids
// returns: source, target, source_title, target_title, source_text, target_text, evidence, method
MATCH (a:Topic)-[r:BRIDGE]->(b:Topic)
WHERE a.id IN $topic_ids OR b.id IN $topic_ids
RETURN a.id AS source, b.id AS target, a.title AS source_title, b.title AS target_title,
       a.text AS source_text, b.text AS target_text, r.evidence AS evidence, r.method AS method
ORDER BY source, target
