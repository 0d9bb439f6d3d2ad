import { Injectable, Logger } from '@nestjs/common';
import {
  AtsSystems,
  ConnectorDirectory,
  AUTHORIZATION_WAIT_MS,
  toMessageError,
} from '@connector/ats-client-factory';
import { OutboundGuard } from '@connector/ats-http';
import type { ConnectorSnapshot, DocumentDataDto, EventEnvelope } from '@connector/contracts';
import { CandidateLocks, writeOnce } from '@connector/exactly-once';
import {
  combinedFailure,
  type MessageHandlingError,
  NotReadyError,
  PermanentMessageError,
  TransientMessageError,
} from '@connector/messaging';
import { withLogContext } from '@connector/observability';
import { CandidateErasedError } from '@connector/service-kit';
import { CandidateRefRepository } from '../candidate-refs/candidate-ref.repository';
import { DocumentEvents } from '../common/document-events';
import { DocumentServiceConfig } from '../document-service.config';
import { downloadDocument } from './document-download';
import { DocumentLinkRepository } from './document-link.repository';
import {
  CANNOT_TELL,
  checkFileBytes,
  claimedFileType,
  cleanFileName,
  type DocumentSink,
} from '@connector/ats-core';
import { DocumentSinks } from './document-sinks';

export type DocumentEvent = EventEnvelope<string, DocumentDataDto>;

interface Upload {
  connector: ConnectorSnapshot;
  sink: DocumentSink;
  candidateExternalId: string;
}

type Outcome =
  { action: 'uploaded'; externalId: string } | { action: 'skipped'; reason: string; externalId?: string };

/**
 * A document into every connector of the account: skipped where the ATS does not take its kind, refused
 * where the ATS would refuse the file, waiting while the candidate is not in the ATS, downloaded once
 * (size cap, sha256) and attached once per candidate per file.
 */
@Injectable()
export class DocumentSyncService {
  private readonly logger = new Logger(DocumentSyncService.name);

  constructor(
    private readonly directory: ConnectorDirectory,
    private readonly sinks: DocumentSinks,
    private readonly refs: CandidateRefRepository,
    private readonly links: DocumentLinkRepository,
    private readonly locks: CandidateLocks,
    private readonly events: DocumentEvents,
    private readonly config: DocumentServiceConfig,
    private readonly guard: OutboundGuard,
    private readonly systems: AtsSystems,
  ) {}

  async sync(received: DocumentEvent): Promise<void> {
    // The name as any ATS and recruiter will see it: no control characters, no path.
    const event = {
      ...received,
      data: { ...received.data, fileName: cleanFileName(received.data.fileName) },
    };
    const document = event.data;
    const connectors = await this.directory.forAccount(event.accountId);
    const failures: MessageHandlingError[] = [];
    const uploads: Upload[] = [];
    for (const connector of connectors) {
      try {
        const upload = await withLogContext({ connectorId: connector.id }, () =>
          this.prepare(connector, event),
        );
        if (upload) uploads.push(upload);
      } catch (error) {
        failures.push(toMessageError(error, connector.id));
      }
    }
    if (uploads.length > 0) {
      // One download for every connector that takes the file; a bad file fails them all alike.
      const content = await downloadDocument(document, {
        maxBytes: this.config.MAX_DOCUMENT_BYTES,
        timeoutMs: this.config.DOWNLOAD_TIMEOUT_MS,
        guard: this.guard,
      });
      for (const upload of uploads) {
        try {
          const type = claimedFileType(
            document,
            upload.sink.fileTypes,
            upload.connector.type,
            upload.connector.id,
          );
          checkFileBytes(document, type, content, upload.connector.id);
          // One of the ATS system's slots, taken before the claim: busy or failing, the message is deferred here.
          await withLogContext({ connectorId: upload.connector.id }, () =>
            this.systems.run('document-writes', upload.connector, () => this.attach(upload, event, content), {
              since: event.occurredAt,
            }),
          );
        } catch (error) {
          failures.push(toMessageError(error, upload.connector.id));
        }
      }
    }
    const failure = combinedFailure(failures);
    if (failure) throw failure;
  }

  /** What this connector will do with the document; skips are reported here, uploads returned. */
  private async prepare(connector: ConnectorSnapshot, event: DocumentEvent): Promise<Upload | undefined> {
    switch (connector.status) {
      case 'disabled':
      case 'pending_authorization':
        return undefined;
      case 'auth_failed':
        throw new TransientMessageError(
          `connector ${connector.id} must be authorized again; waiting`,
          connector.id,
          undefined,
          AUTHORIZATION_WAIT_MS,
        );
      case 'connected':
        break;
    }
    const sink = this.sinks.for(connector, event.id);
    const plan = sink.plan(event.data);
    switch (plan.action) {
      case 'skip': {
        // A skip is for good: decide it on the connector as it is now, not on a snapshot seconds old.
        const current = await this.directory.get(connector.id, event.accountId, { fresh: true });
        if (this.sinks.for(current).plan(event.data).action === 'upload') return this.prepare(current, event);
        await this.report(connector, event, { action: 'skipped', reason: plan.reason });
        return undefined;
      }
      case 'upload':
        break;
    }
    const candidateExternalId = await this.refs.find(connector.id, event.data.candidateId);
    if (!candidateExternalId) {
      throw new NotReadyError(
        `candidate ${event.data.candidateId} is not in ${connector.id} yet; waiting`,
        connector.id,
      );
    }
    return { connector, sink, candidateExternalId };
  }

  private async attach(upload: Upload, event: DocumentEvent, content: Buffer): Promise<void> {
    const { connector, sink, candidateExternalId } = upload;
    const document = event.data;
    const key = {
      connectorId: connector.id,
      candidateId: document.candidateId,
      sha256: document.sha256.toLowerCase(),
    };
    const { candidateId } = document;
    // The lock, the erasure check and the file's link read or its upload claimed: one statement.
    const outcome = await this.locks.runBy(
      this.links.claimOrFind(key, { accountId: event.accountId, documentId: document.documentId }),
      async (lease, found): Promise<Outcome> => {
        const fence = lease.token;
        if (found.erased) throw new CandidateErasedError(candidateId, connector.id);
        const link = found.claimed ? undefined : found.link;
        if (link?.externalId) {
          return link.documentId === document.documentId
            ? { action: 'uploaded', externalId: link.externalId } // a redelivery: say it again
            : {
                action: 'skipped',
                reason: `the same file is already attached to this candidate (document ${link.documentId})`,
                externalId: link.externalId,
              };
        }
        let claimed = found.claimed;
        const written = await writeOnce(
          link,
          {
            claim: async () => {
              if (claimed)
                claimed = false; // taken by claimOrFind
              else await this.links.markPending(key, { documentId: document.documentId, fence });
            },
            // The last write under the lock, which goes with it.
            link: (linked) =>
              this.links.link(key, { externalId: linked.externalId, fence, release: lease.release }),
            release: () => this.links.release(key, { fence }),
          },
          {
            findExisting: async () => {
              // The unsure upload may have been another platform document with the same file (the claim is
              // per file): it went out under that document's id.
              const sentAs = [...new Set([link?.documentId, document.documentId])].filter(
                (id): id is string => id !== undefined && id !== null,
              );
              const existing = await sink.findExisting(candidateExternalId, sentAs);
              if (existing !== CANNOT_TELL) return existing;
              throw new PermanentMessageError(
                `an earlier upload of this file to ${connector.type} ended without an answer and the ATS cannot be asked ` +
                  'whether it landed; not uploaded again so it is never attached twice (check the candidate in the ATS)',
                connector.id,
              );
            },
            create: async () => ({
              externalId: await sink.upload(candidateExternalId, document, content, lease.signal),
            }),
          },
          lease.signal,
        );
        return { action: 'uploaded', externalId: written.externalId };
      },
    );
    await this.report(connector, event, outcome);
  }

  private async report(connector: ConnectorSnapshot, event: DocumentEvent, outcome: Outcome): Promise<void> {
    if (outcome.action === 'skipped') {
      this.logger.log(`${event.data.documentId} skipped for ${connector.id}: ${outcome.reason}`);
    }
    await this.events.documentSynced(event, {
      connectorId: connector.id,
      documentId: event.data.documentId,
      candidateId: event.data.candidateId,
      ...(outcome.externalId ? { externalId: outcome.externalId } : {}),
      action: outcome.action,
      ...(outcome.action === 'skipped' ? { reason: outcome.reason } : {}),
    });
  }
}
