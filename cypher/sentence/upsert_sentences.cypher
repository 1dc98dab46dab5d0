// purpose: Upsert sentence nodes with their role label (Core or Supplementary) and link them to their passage.
// mode: write
// param rows: list<map> -- {id, passage_id, position, text, role, embedding}; role is 'core' or 'supplementary'
// returns: sentences
UNWIND $rows AS row
MERGE (s:SentenceNode {id: row.id})
SET s:Sentence, s.passage_id = row.passage_id, s.position = row.position, s.text = row.text,
    s.role = row.role, s.embedding = row.embedding
REMOVE s:Core:Supplementary
FOREACH (_ IN CASE WHEN row.role = 'core' THEN [1] ELSE [] END | SET s:Core)
FOREACH (_ IN CASE WHEN row.role = 'supplementary' THEN [1] ELSE [] END | SET s:Supplementary)
WITH s, row
MATCH (p:SentenceNode {id: row.passage_id})
MERGE (s)-[:FROM_PASSAGE]->(p)
RETURN count(*) AS sentences
