// purpose: Upsert passages and their topic nodes (title, summary line, embeddings).
// mode: write
// param rows: list<map> -- {id, title, text, language, method, notes, embedding, topic_id, topic_text, key, topic_embedding}
// returns: passages
UNWIND $rows AS row
MERGE (p:SentenceNode {id: row.id})
SET p:Passage, p.title = row.title, p.text = row.text, p.language = row.language,
    p.method = row.method, p.notes = row.notes, p.embedding = row.embedding
MERGE (t:SentenceNode {id: row.topic_id})
SET t:Topic, t.title = row.title, t.text = row.topic_text, t.key = row.key,
    t.embedding = row.topic_embedding
MERGE (t)-[:FROM_PASSAGE]->(p)
RETURN count(*) AS passages
