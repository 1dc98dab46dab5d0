// purpose: Before a passage is (re)written, remove its intra-document edges, its topic's entity mentions and the sentences it no longer has.
// mode: write
// param rows: list<map> -- one map per passage {id, topic_id, sentence_ids}
// returns: passages
UNWIND $rows AS row
OPTIONAL MATCH (:Sentence {passage_id: row.id})-[r:NN_RELATION|SUPPORTS|HAS_CORE]-()
WITH row, collect(DISTINCT r) AS rels
FOREACH (r IN rels | DELETE r)
WITH row
OPTIONAL MATCH (:SentenceNode {id: row.topic_id})-[m:MENTIONS]->()
WITH row, collect(m) AS mentions
FOREACH (m IN mentions | DELETE m)
WITH row
OPTIONAL MATCH (stale:Sentence {passage_id: row.id})
WHERE NOT stale.id IN row.sentence_ids
DETACH DELETE stale
RETURN count(DISTINCT row.id) AS passages
