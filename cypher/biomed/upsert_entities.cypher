// purpose: Upsert biomedical entities by id, add their type label (validated against BioType in Python) and refresh the full-text search text.
// mode: write
// param rows: list<map> -- {id, name, label, node_type, source, source_id, aliases: list<string>}
// returns: count
UNWIND $rows AS row
MERGE (n:BioEntity {id: row.id})
ON CREATE SET n.name = row.name, n.node_type = row.node_type, n.source = row.source,
              n.source_id = row.source_id
SET n.aliases = apoc.coll.toSet(coalesce(n.aliases, []) + row.aliases)
SET n.search_text = apoc.text.join([n.name] + n.aliases, ' | ')
WITH n, row
CALL apoc.create.addLabels(n, [row.label]) YIELD node
RETURN count(node) AS count
