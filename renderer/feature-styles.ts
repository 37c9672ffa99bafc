// Every feature's own styles (features/<area>/styles.css, alphabetically by folder), after the shared
// ones: main.tsx imports ui/styles.css, then this module. A module of its own because the imports
// import.meta.glob makes are hoisted above every other import of the module that holds it.
import.meta.glob('./features/*/styles.css', { eager: true });
