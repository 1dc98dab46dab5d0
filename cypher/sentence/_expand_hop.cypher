// One breadth-first hop of path expansion, pasted once per hop into sentence/expand_paths.
// Expects frontier (list of path maps {id, nodes, relations, score}), visited (ids on some
// path), added (sentences added so far), hops (hops run) and found (new paths) bound, and
// rebinds them. The hop runs only while the frontier is not empty, fewer than
// $expansion_limit sentences were added and fewer than $max_hops hops ran. For each frontier
// node: its `beam` most question-similar unvisited neighbours (HAS_CORE, SUPPORTS, NN_RELATION,
// BRIDGE, either direction); a path's score is decay * similarity + (1 - decay) * its parent's.
// The candidates are taken best score first (ties: node id, then source id): a node reached
// from two ends keeps its better path, and past the limit only topic nodes are still taken.
CALL (frontier, visited, added, hops) {
  UNWIND CASE WHEN added < $expansion_limit AND hops < $max_hops THEN frontier ELSE [] END AS f
  MATCH (s:SentenceNode {id: f.id})-[r:HAS_CORE|SUPPORTS|NN_RELATION|BRIDGE]-(n:SentenceNode)
  WHERE NOT n.id IN visited AND n.embedding IS NOT NULL
  WITH f, n, r, vector.similarity.cosine(n.embedding, $embedding) AS similarity
  ORDER BY similarity DESC, n.id
  WITH f, collect({n: n, r: r, similarity: similarity})[..$beam] AS best
  UNWIND best AS b
  WITH f, b.n AS n, b.r AS r, b.similarity AS similarity
  OPTIONAL MATCH (n)-[:FROM_PASSAGE]->(p:Passage)
  WITH {id: n.id, source: f.id, nodes: f.nodes + n.id,
        relations: f.relations + (type(r) + ':' + coalesce(r.relation, '')),
        score: $decay * similarity + (1 - $decay) * f.score,
        kind: CASE WHEN n:Topic THEN 'topic' WHEN n:Core THEN 'core' ELSE 'supplementary' END,
        passage_id: p.id, position: n.position, text: n.text, title: p.title} AS c
  ORDER BY c.score DESC, c.id, c.source
  RETURN collect(c) AS candidates
}
WITH visited, added, found, candidates,
     hops + CASE WHEN size(frontier) > 0 AND added < $expansion_limit AND hops < $max_hops
                 THEN 1 ELSE 0 END AS hops
WITH found, hops,
     reduce(st = {seen: visited, added: added, out: []}, c IN candidates |
       CASE WHEN c.id IN st.seen THEN st
            WHEN c.kind <> 'topic' AND st.added >= $expansion_limit THEN st
            ELSE {seen: st.seen + c.id,
                  added: st.added + CASE WHEN c.kind = 'topic' THEN 0 ELSE 1 END,
                  out: st.out + c} END) AS st
WITH st.out AS frontier, st.seen AS visited, st.added AS added, hops, found + st.out AS found
