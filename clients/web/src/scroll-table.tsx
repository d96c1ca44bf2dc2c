/**
 * A wide table in a box that scrolls sideways on narrow screens, reachable with the keyboard
 * (focusable) and named for screen readers.
 */
import type { ComponentChildren, VNode } from "preact";

/** Wraps `children` (a `<table>`) in a focusable, labelled, sideways-scrolling group. */
export function ScrollTable(props: {
  label: string;
  children: ComponentChildren;
}): VNode {
  return (
    <div
      class="table-scroll"
      tabIndex={0}
      role="group"
      aria-label={props.label}
    >
      {props.children}
    </div>
  );
}
