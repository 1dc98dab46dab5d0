// purpose: Shortest-path length (in edges, at most $max_edges, any relation, either direction) between each question entity and option entity of a pair list; null when they are farther apart or not connected. Used by the biomed benchmark to measure how many questions the graph can answer from paths at all.
// mode: read
// param pairs: list<map> -- {stem_id: string, option_id: string}
// param max_edges: int -- longest path searched (1 to 3)
// returns: stem_id, option_id, edges
UNWIND $pairs AS p
MATCH (a:BioEntity {id: p.stem_id}), (b:BioEntity {id: p.option_id})
OPTIONAL MATCH sp = shortestPath((a)-[*..3]-(b))
WITH p, CASE WHEN sp IS NULL OR length(sp) > $max_edges THEN null ELSE length(sp) END AS edges
RETURN p.stem_id AS stem_id, p.option_id AS option_id, edges
