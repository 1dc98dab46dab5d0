// purpose: Add synonyms to the entities with a given exact name (alias table) and refresh their search text.
// mode: write
// param rows: list<map> -- {name, aliases: list<string>}
// returns: name, matched
UNWIND $rows AS row
OPTIONAL MATCH (n:BioEntity {name: row.name})
CALL (n, row) {
  WITH n, row WHERE n IS NOT NULL
  SET n.aliases = apoc.coll.toSet(coalesce(n.aliases, []) + row.aliases)
  SET n.search_text = apoc.text.join([n.name] + n.aliases, ' | ')
  RETURN count(n) AS touched
}
RETURN row.name AS name, touched AS matched
