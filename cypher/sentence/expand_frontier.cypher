// purpose: One breadth-first hop of path expansion: for each frontier node, its graph neighbours (topic, core, supplementary; along HAS_CORE, SUPPORTS, NN_RELATION, BRIDGE in either direction) not yet visited, the most similar to the question first, at most `beam` per frontier node.
// mode: read
// param frontier: list<string> -- ids of the nodes at the end of the current paths
// param visited: list<string> -- ids already on some path (never revisited)
// param embedding: list<float> -- the question's vector
// param beam: int -- neighbours kept per frontier node
// returns: source, id, kind, passage_id, position, text, edge, relation, method, similarity, title
UNWIND $frontier AS source
MATCH (f:SentenceNode {id: source})-[r:HAS_CORE|SUPPORTS|NN_RELATION|BRIDGE]-(n:SentenceNode)
WHERE NOT n.id IN $visited AND n.embedding IS NOT NULL
WITH source, n, r, vector.similarity.cosine(n.embedding, $embedding) AS similarity
ORDER BY similarity DESC, n.id
WITH source, collect({n: n, r: r, similarity: similarity})[..$beam] AS best
UNWIND best AS b
WITH source, b.n AS n, b.r AS r, b.similarity AS similarity
OPTIONAL MATCH (n)-[:FROM_PASSAGE]->(p:Passage)
RETURN source, n.id AS id,
       CASE WHEN n:Topic THEN 'topic' WHEN n:Core THEN 'core' ELSE 'supplementary' END AS kind,
       p.id AS passage_id, n.position AS position, n.text AS text, type(r) AS edge,
       r.relation AS relation, r.method AS method, similarity, p.title AS title
ORDER BY source, similarity DESC, id
