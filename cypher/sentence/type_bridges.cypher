// purpose: Record LLM-typed relations on topic-topic bridges.
// mode: write
// param rows: list<map> -- {source, target, relation}
// returns: bridges
UNWIND $rows AS row
MATCH (a:SentenceNode {id: row.source})-[r:BRIDGE]->(b:SentenceNode {id: row.target})
SET r.relation = row.relation, r.method = 'llm'
RETURN count(*) AS bridges
