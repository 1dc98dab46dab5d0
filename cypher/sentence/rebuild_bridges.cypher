// purpose: Recompute heuristic topic-topic bridges from shared entities over the whole graph (order-independent); a shared title counts extra; each topic keeps its strongest bridges; LLM-typed bridges keep their type.
// mode: write
// param max_df: int -- entities mentioned by more topics than this are hubs and do not bridge
// param max_bridges: int -- a pair is kept when it is among the strongest this many of either topic
// param title_weight: float -- extra score when the shared entity is one topic's own title
// returns: bridges
OPTIONAL MATCH ()-[old:BRIDGE {method: 'heuristic'}]->()
DELETE old
WITH count(*) AS cleared
MATCH (e:TopicEntity)<-[:MENTIONS]-(t:Topic)
WITH e, collect(t) AS topics
WHERE size(topics) >= 2 AND size(topics) <= $max_df
UNWIND topics AS a
UNWIND topics AS b
WITH a, b, e
WHERE a.id < b.id
WITH a, b, collect(e.name) AS shared,
     sum(1.0 + CASE WHEN e.id = 'entity:' + a.key OR e.id = 'entity:' + b.key THEN $title_weight ELSE 0.0 END) AS score
WITH collect({a: a, b: b, shared: shared, score: score}) AS pairs
UNWIND pairs AS p
UNWIND [p.a, p.b] AS endpoint
WITH endpoint, p
ORDER BY p.score DESC, p.a.id, p.b.id
WITH endpoint, collect(p)[..$max_bridges] AS strongest
UNWIND strongest AS p
WITH DISTINCT p.a AS a, p.b AS b, p.shared AS shared, p.score AS score
MERGE (a)-[r:BRIDGE]->(b)
ON CREATE SET r.relation = 'shared_entity', r.method = 'heuristic'
SET r.score = score, r.evidence = apoc.text.join(apoc.coll.sort(shared), '; ')
RETURN count(*) AS bridges
