// purpose: Upsert nucleus-satellite relations from core to supplementary sentences (cause, result, opposition, elaboration, circumstance, evaluation, solutionhood).
// mode: write
// param rows: list<map> -- {source, target, relation, method, score, evidence}; source is the core
// returns: relations
UNWIND $rows AS row
MATCH (a:SentenceNode {id: row.source})
MATCH (b:SentenceNode {id: row.target})
MERGE (a)-[r:SUPPORTS]->(b)
SET r.relation = row.relation, r.method = row.method, r.score = row.score, r.evidence = row.evidence
RETURN count(*) AS relations
