// purpose: Upsert legal units (and unit versions) with their level label and their containment edge from the parent; a Placeholder with the same id becomes the real unit in place, a missing parent becomes a Placeholder. A unit another document inserted before this one was loaded (its text already has the unit: a portal copy updated after the insertion) keeps the inserted wording as a version (id <unit>@<inserting document>, inserted = true), as upsert_supplemented_units does in the other load order.
// mode: write
// param rows: list<map> -- one map per unit in document order (parents first) {id, level: Part|Chapter|Section|Subsection|Article|Clause|Point|Annex, version: bool, parent: id of the containing Document or unit or null, parent_kind: 'unit'|'document', parent_doc, props: {doc_id, level, number, path, label, heading, text, text_segmented, embedding?, ordinal, valid_from, valid_to, status, citation, ...}}
// returns: count
UNWIND $rows AS row
MERGE (u:LegalNode {id: row.id})
WITH u, row, CASE WHEN NOT row.version AND u.supplemented_by IS NOT NULL AND u.text IS NOT NULL
    AND NOT u:Placeholder AND NOT u:UnitVersion AND u.doc_id = row.props.doc_id
  THEN properties(u) END AS inserted
CALL (u, row, inserted) {
  WITH u, inserted WHERE inserted IS NOT NULL
  MERGE (v:LegalNode {id: u.id + '@' + inserted.supplemented_by})
  SET v += apoc.map.removeKey(inserted, 'id'), v:LegalUnit:UnitVersion,
    v.amended_by = inserted.supplemented_by, v.supplemented_by = null, v.inserted = true
  MERGE (v)-[:VERSION_OF]->(u)
  RETURN count(v) AS versioned
}
// One dynamic label set instead of a conditional SET per level; only known levels become labels.
SET u += row.props, u:$(['LegalUnit'] + CASE
  WHEN row.version THEN ['UnitVersion']
  WHEN row.level IN ['Part', 'Chapter', 'Section', 'Subsection', 'Article', 'Clause', 'Point', 'Annex']
    THEN [row.level]
  ELSE [] END)
REMOVE u:Placeholder, u.kind
WITH u, row
CALL (u, row) {
  WITH u, row WHERE row.parent IS NOT NULL
  MERGE (p:LegalNode {id: row.parent})
    ON CREATE SET p:Placeholder, p.kind = row.parent_kind, p.doc_id = row.parent_doc
  MERGE (p)-[:CONTAINS]->(u)
}
RETURN count(u) AS count
