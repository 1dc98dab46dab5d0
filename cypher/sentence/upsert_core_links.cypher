// purpose: Link topics to their core sentences (topic-core edges).
// mode: write
// param rows: list<map> -- {topic_id, core_id, method, score}
// returns: links
UNWIND $rows AS row
MATCH (t:SentenceNode {id: row.topic_id})
MATCH (c:SentenceNode {id: row.core_id})
MERGE (t)-[r:HAS_CORE]->(c)
SET r.relation = 'topic', r.method = row.method, r.score = row.score
RETURN count(*) AS links
