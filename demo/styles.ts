// Styles shared by the demo's elements: each adopts them in its own shadow root.
import { css } from 'lit';

/** Buttons, inputs, lists and status text, the same in every section. */
export const controls = css`
  :host {
    display: block;
    font: inherit;
    color: var(--ink);
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  button {
    font: inherit;
    font-size: 0.875rem;
    border: 1px solid var(--line);
    background: var(--surface);
    color: var(--ink);
    border-radius: 8px;
    padding: 0.35rem 0.75rem;
    cursor: pointer;
    transition:
      background 0.15s,
      border-color 0.15s;
  }
  button:hover:not(:disabled) {
    border-color: var(--accent);
  }
  button:disabled {
    opacity: 0.55;
    cursor: default;
  }
  button.primary {
    background: var(--accent);
    border-color: var(--accent);
    color: white;
  }
  button.primary:hover:not(:disabled) {
    background: var(--accent-strong);
  }
  button.quiet {
    border-color: transparent;
    background: transparent;
    color: var(--muted);
    padding: 0.2rem 0.4rem;
  }
  button.quiet:hover:not(:disabled) {
    color: var(--danger);
    border-color: transparent;
  }
  input[type='text'] {
    font: inherit;
    font-size: 0.875rem;
    border: 1px solid var(--line);
    border-radius: 8px;
    padding: 0.35rem 0.6rem;
    min-width: 0;
    background: var(--surface);
    color: var(--ink);
  }
  input[type='text']:focus,
  button:focus-visible {
    outline: 2px solid var(--accent-soft);
    outline-offset: 1px;
    border-color: var(--accent);
  }
  input[type='checkbox'] {
    accent-color: var(--accent);
    width: 1rem;
    height: 1rem;
    margin: 0;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .row {
    display: flex;
    gap: 0.5rem;
    align-items: center;
    flex-wrap: wrap;
  }
  .muted {
    color: var(--muted);
  }
  .pending {
    color: var(--muted);
    font-style: italic;
  }
  .error {
    color: var(--danger);
  }
  .tabs {
    display: inline-flex;
    gap: 2px;
    padding: 2px;
    border-radius: 10px;
    background: var(--sunken);
  }
  .tabs button {
    border: none;
    background: transparent;
    padding: 0.3rem 0.8rem;
  }
  .tabs button[aria-pressed='true'] {
    background: var(--surface);
    box-shadow: 0 1px 2px rgb(15 23 42 / 0.12);
    font-weight: 600;
  }
  code {
    font-family: var(--mono);
    font-size: 0.8em;
    background: var(--sunken);
    border-radius: 4px;
    padding: 0.05rem 0.3rem;
  }
`;

/** A list of posts, one row each, numbered from the list's start (the number is not text: the title is). */
export const postRows = css`
  ol {
    margin: 0;
    padding: 0;
    list-style: none;
  }
  li {
    counter-increment: post;
    display: flex;
    align-items: center;
    gap: 0.6rem;
    height: var(--row);
    border-bottom: 1px solid var(--sunken);
    font-size: 0.9rem;
    white-space: nowrap;
    overflow: hidden;
  }
  li::before {
    content: counter(post);
    color: var(--muted);
    font-variant-numeric: tabular-nums;
    min-width: 1.5rem;
    text-align: right;
  }
`;
