// Which screen is showing. Screens are few and shallow, so a small store replaces a router:
// there are no URLs to share in a station, and the address bar holds nothing of the patient.
import { create } from 'zustand';
import { holdsPatientData } from './patient-data';

export type Route =
  | { readonly name: 'setup' }
  | { readonly name: 'lookup' }
  | { readonly name: 'patient' }
  | { readonly name: 'workflow'; readonly workflowId: string }
  | { readonly name: 'emergency-new' }
  | { readonly name: 'work'; readonly patientRef?: string }
  | { readonly name: 'activity' }
  | { readonly name: 'beds' }
  | { readonly name: 'claims'; readonly workflowId?: string }
  | { readonly name: 'settings' }
  | { readonly name: 'pharmacy' };

interface NavigationState {
  readonly route: Route;
  go(route: Route): void;
}

export const useNavigation = create<NavigationState>()((set) => ({
  route: { name: 'lookup' },
  go: (route) => set({ route }),
}));

export const go = (route: Route) => useNavigation.getState().go(route);

holdsPatientData(() => {
  const { route } = useNavigation.getState();
  if (route.name !== 'setup' && route.name !== 'settings' && route.name !== 'activity') go({ name: 'lookup' });
});
