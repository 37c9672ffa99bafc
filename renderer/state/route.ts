// The station's screens as routes, and a route read back from the window's history (a reload, Back,
// Forward): checked field by field, never cast. No DOM here: the history itself is navigation.ts's.
export type Route =
  | { readonly name: 'setup' }
  | { readonly name: 'lookup' }
  /** The patient looked up; by ref, so a reload or Back can ask the station for the look-up again. */
  | { readonly name: 'patient'; readonly patientRef?: string }
  | { readonly name: 'workflow'; readonly workflowId: string }
  | { readonly name: 'emergency-new' }
  | { readonly name: 'work'; readonly patientRef?: string }
  | { readonly name: 'activity' }
  | { readonly name: 'beds' }
  | { readonly name: 'claims'; readonly workflowId?: string }
  | { readonly name: 'settings' }
  | { readonly name: 'pharmacy' };

const PLAIN = new Set(['setup', 'lookup', 'emergency-new', 'activity', 'beds', 'settings', 'pharmacy']);
/** An opaque handle of the station's (wf_…, pt_…, st_…), as a history entry may carry it. */
export const isHandle = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(value);

/** A route read back from the window's history (anything else there is not ours, or is stale): checked, never cast. */
export function routeOf(value: unknown): Route | null {
  if (typeof value !== 'object' || value === null || !('name' in value) || typeof value.name !== 'string') return null;
  const fields = value as { readonly name: string; readonly patientRef?: unknown; readonly workflowId?: unknown };
  const optional = (field: unknown) => field === undefined || isHandle(field);
  if (PLAIN.has(fields.name)) return { name: fields.name } as Route;
  switch (fields.name) {
    case 'patient':
    case 'work':
      return optional(fields.patientRef) ? { name: fields.name, ...(fields.patientRef === undefined ? {} : { patientRef: fields.patientRef as string }) } : null;
    case 'claims':
      return optional(fields.workflowId) ? { name: 'claims', ...(fields.workflowId === undefined ? {} : { workflowId: fields.workflowId as string }) } : null;
    case 'workflow':
      return isHandle(fields.workflowId) ? { name: 'workflow', workflowId: fields.workflowId } : null;
    default:
      return null;
  }
}

