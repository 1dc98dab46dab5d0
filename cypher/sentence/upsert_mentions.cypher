// purpose: Upsert the named entities a topic's passage mentions (the title counts as one); the smallest name and label win so that load order does not matter.
// mode: write
// param rows: list<map> -- {topic_id, entity_id, name, label}
// returns: mentions
UNWIND $rows AS row
MATCH (t:SentenceNode {id: row.topic_id})
MERGE (e:SentenceNode {id: row.entity_id})
SET e:TopicEntity,
    e.name = CASE WHEN e.name IS NULL OR row.name < e.name THEN row.name ELSE e.name END,
    e.label = CASE WHEN e.label IS NULL OR row.label < e.label THEN row.label ELSE e.label END
MERGE (t)-[:MENTIONS]->(e)
RETURN count(*) AS mentions
