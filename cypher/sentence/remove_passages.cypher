// purpose: Remove the passages whose id starts with $prefix with their topics and sentences, then the topic entities no topic mentions any more (the bridges are rebuilt afterwards by sentence/rebuild_bridges).
// mode: write
// param prefix: string -- passage id prefix (the shipped sample corpus: 'sample-')
// returns: passages, nodes
MATCH (p:Passage) WHERE p.id STARTS WITH $prefix
WITH collect(p) AS passages, collect(p.id) AS ids
CALL (ids) {
  UNWIND ids AS pid
  OPTIONAL MATCH (t:Topic {id: pid + '#topic'})
  OPTIONAL MATCH (s:Sentence {passage_id: pid})
  WITH collect(DISTINCT t) + collect(DISTINCT s) AS parts
  RETURN parts
}
CALL (passages, parts) {
  OPTIONAL MATCH (t:Topic)-[:MENTIONS]->(e:TopicEntity) WHERE t IN parts
  WITH collect(DISTINCT e) AS entities
  UNWIND passages + parts AS n
  DETACH DELETE n
  WITH entities, count(*) AS removed
  CALL (entities) {
    UNWIND entities AS e
    WITH e WHERE NOT EXISTS { (:Topic)-[:MENTIONS]->(e) }
    DETACH DELETE e
    RETURN count(*) AS orphans
  }
  RETURN removed + orphans AS nodes
}
RETURN size(passages) AS passages, nodes
