// purpose: Upsert nucleus-nucleus relations between core sentences (conjunction, contrast, disjunction, restatement, sequence).
// mode: write
// param rows: list<map> -- {source, target, relation, method, score, evidence}
// returns: relations
UNWIND $rows AS row
MATCH (a:SentenceNode {id: row.source})
MATCH (b:SentenceNode {id: row.target})
MERGE (a)-[r:NN_RELATION]->(b)
SET r.relation = row.relation, r.method = row.method, r.score = row.score, r.evidence = row.evidence
RETURN count(*) AS relations
