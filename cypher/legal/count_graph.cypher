// purpose: Counts for the load report: units by level, edges by type and origin, placeholders by kind, unresolved references.
// mode: read
// returns: kind, name, count
CALL () {
  MATCH (u:LegalUnit) WHERE NOT u:UnitVersion
  RETURN 'units' AS kind, u.level AS name, count(*) AS count
  UNION ALL
  MATCH (:UnitVersion) RETURN 'units' AS kind, 'UnitVersion' AS name, count(*) AS count
  UNION ALL
  MATCH (d:Document) RETURN 'documents' AS kind, 'Document' AS name, count(d) AS count
  UNION ALL
  MATCH (:LegalNode)-[r]->(:LegalNode) WHERE type(r) <> 'CONTAINS'
  RETURN 'edges' AS kind, type(r) + '/' + coalesce(r.origin, '-') AS name, count(*) AS count
  UNION ALL
  MATCH (p:Placeholder) RETURN 'placeholders' AS kind, coalesce(p.kind, '-') AS name, count(*) AS count
  UNION ALL
  MATCH (x:UnresolvedReference) RETURN 'unresolved' AS kind, 'UnresolvedReference' AS name, count(x) AS count
}
RETURN kind, name, count
ORDER BY kind, name
