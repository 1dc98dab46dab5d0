// purpose: Remove the given edges between entities read by name (source 'name', as a names-only triplet file writes them; PrimeKG entities are never touched), then those entities no edge touches any more.
// mode: write
// param rows: list<map> -- {head, tail, type}: entity ids and the BioRel type of the stored edge
// returns: edges, entities
CALL () {
  UNWIND $rows AS row
  MATCH (a:BioEntity {id: row.head, source: 'name'})-[r]->(b:BioEntity {id: row.tail, source: 'name'})
  WHERE type(r) = row.type
  DELETE r
  RETURN count(r) AS edges
}
CALL () {
  UNWIND $rows AS row
  UNWIND [row.head, row.tail] AS id
  WITH DISTINCT id
  MATCH (n:BioEntity {id: id, source: 'name'})
  WHERE NOT EXISTS { (n)--() }
  DELETE n
  RETURN count(*) AS entities
}
RETURN edges, entities
