import type { ComponentChildren } from 'preact';
import type { Finding, NetworkLink } from '../../src/sdk';
import type { RevisionChanges, ReviewedAssessment } from './review-wire';

/** The links between a revision and the assessment it revises, both ways, each to the other's review page. */
export function RevisionLinks({ view }: { view: ReviewedAssessment }) {
  if (!view.revision_of && !view.revised_by) return null;
  return (
    <p class="revision-links">
      {view.revision_of && (
        <span>
          Revises <a href={`#/review/${view.revision_of}`} data-testid="revision-of">{view.revision_of}</a>, whose review requested changes
        </span>
      )}
      {view.revised_by && (
        <span>
          Revised by <a href={`#/review/${view.revised_by}`} data-testid="revised-by">{view.revised_by}</a>
        </span>
      )}
    </p>
  );
}

/** What a revision changed against the assessment it revises: its architecture, and the checks' findings. */
export function WhatChanged({ changes }: { changes: RevisionChanges }) {
  return (
    <section class="changes" aria-labelledby="changes-title">
      <h2 id="changes-title">What changed</h2>
      <p class="muted">Since {changes.of}, the assessment this one revises.</p>
      <dl>
        <Change name="components_added" label="Components added" items={changes.components_added.map((id) => <code>{id}</code>)} />
        <Change name="components_removed" label="Components removed" items={changes.components_removed.map((id) => <code>{id}</code>)} />
        <Change name="links_added" label="Links added" items={changes.links_added.map(describeLink)} />
        <Change name="links_removed" label="Links removed" items={changes.links_removed.map(describeLink)} />
        {changes.findings_fixed && <Change name="findings_fixed" label="Findings fixed" items={changes.findings_fixed.map(describeFinding)} />}
        {changes.findings_new && <Change name="findings_new" label="Findings new" items={changes.findings_new.map(describeFinding)} />}
      </dl>
      {!(changes.findings_fixed && changes.findings_new) && <p class="muted">Findings fixed and new: once the checks of both have run.</p>}
    </section>
  );
}

function Change({ name, label, items }: { name: string; label: string; items: ComponentChildren[] }) {
  return (
    <div data-change={name}>
      <dt>
        {label} ({items.length})
      </dt>
      <dd>
        {items.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          <ul>
            {items.map((item, index) => (
              <li key={index}>{item}</li>
            ))}
          </ul>
        )}
      </dd>
    </div>
  );
}

function describeLink(link: NetworkLink): ComponentChildren {
  return (
    <>
      <code>{link.from}</code> → <code>{link.to}</code>
      {link.kind ? <span class="muted"> ({link.kind})</span> : null}
    </>
  );
}

function describeFinding(finding: Finding): ComponentChildren {
  return (
    <>
      <span class="severity" data-severity={finding.severity}>{finding.severity}</span> <code>{finding.check}</code> {finding.message}
    </>
  );
}
