// A page of a list the station holds whole (interventions, protocols).
export function paged<T>(items: T[], page: number | undefined, pageSize: number | undefined) {
  const size = pageSize ?? 50;
  const p = page ?? 1;
  return { items: items.slice((p - 1) * size, p * size), page: p, pageSize: size, total: items.length, totalPages: Math.ceil(items.length / size) };
}
