import { DurableObject } from "cloudflare:workers";
import type { DatabaseBindings } from "../../db/bindings";
import {
  beginCapture,
  CHUNK,
  claimsInFlight,
  copyChunk,
  deleteTenantRows,
  endCapture,
  replayChanges,
  setStage,
  verifyCopy,
} from "../../db/moves/steps";
import { movedTables } from "../../db/moves/tables";
import { shardDatabase } from "../../db/shards";
import type { MoveFault } from "../../dev/move-fault";
import { log } from "../../observability/log";
import { switchDirectory, updateMove } from "./records";

/** The bindings a move needs: the databases and the Durable Objects that drive moves. */
export interface MoveBindings extends DatabaseBindings {
  TENANT_MOVER: DurableObjectNamespace<TenantMover>;
}

type Step =
  | "begin"
  | "copy"
  | "catch-up"
  | "drain"
  | "replay"
  | "verify"
  | "switch"
  | "delete"
  | "finish"
  | "roll-back";

interface MoveState {
  moveId: string;
  tenantId: string;
  from: string;
  to: string;
  fault?: MoveFault;
  step: Step;
  /** Index into the copied tables and the last rowid copied of it. */
  table: number;
  cursor: number;
  rowsCopied: number;
  /** Catch-up passes run, and when draining began. */
  passes: number;
  drainingSince: number;
  /** Consecutive failures of the current step (a transient D1 error is retried). */
  attempts: number;
  reason?: string;
}

const copiedTables = movedTables.filter((table) => table.copied);
// Catch up until a pass finds fewer changes than a chunk (or this many passes), then fence.
const CATCH_UP_PASSES = 20;
// How long the move waits for requests that claimed an Idempotency-Key before draining to answer.
const DRAIN_MS = 5_000;
// Between the switch and deleting the old copy: a read that looked the tenant up just before the switch
// still finds its rows.
const SWITCH_GRACE_MS = 1_000;
const MAX_ATTEMPTS = 3;
// One alarm runs steps for at most this long, then schedules the next (each step is a few statements).
const SLICE_MS = 1_000;

class InjectedFault extends Error {}

/**
 * Runs one tenant move in the background, a step at a time on Durable Object alarms (state in the
 * object's storage, so a move survives eviction and restarts; no Workflow or queue to configure: see
 * docs/decisions/scale-out.md). Until the directory switches, any failure rolls back: the copy is
 * dropped and the source is unfenced, so the tenant stays where it was, intact.
 */
export class TenantMover extends DurableObject<MoveBindings> {
  async start(move: Pick<MoveState, "moveId" | "tenantId" | "from" | "to" | "fault">) {
    const state: MoveState = {
      ...move,
      step: "begin",
      table: 0,
      cursor: 0,
      rowsCopied: 0,
      passes: 0,
      drainingSince: 0,
      attempts: 0,
    };
    await this.ctx.storage.put("move", state);
    await this.ctx.storage.setAlarm(Date.now());
  }

  override async alarm() {
    let state = await this.ctx.storage.get<MoveState>("move");
    const started = Date.now();
    while (state) {
      let wait: number | undefined;
      try {
        if (state.step === "finish") {
          await this.finish(state);
          return;
        }
        const next = await this.advance(state, state.step);
        state = { ...next.state, attempts: 0 };
        wait = next.wait;
      } catch (error) {
        state = this.failed(state, error);
        wait = 500 * state.attempts;
      }
      await this.ctx.storage.put("move", state);
      if (wait !== undefined || Date.now() - started > SLICE_MS) {
        await this.ctx.storage.setAlarm(Date.now() + (wait ?? 0));
        return;
      }
    }
  }

  /** After an error: retried a few times, then (before the switch) rolled back; after it, retried until done. */
  private failed(state: MoveState, error: unknown): MoveState {
    const message = error instanceof Error ? error.message : String(error);
    log("error", "tenant move step failed", { move: state.moveId, step: state.step, error: message });
    const attempts = state.attempts + 1;
    const afterSwitch = state.step === "delete" || state.step === "finish";
    if (
      afterSwitch ||
      state.step === "roll-back" ||
      (attempts < MAX_ATTEMPTS && !(error instanceof InjectedFault))
    ) {
      return { ...state, attempts: Math.min(attempts, 10) };
    }
    return { ...state, step: "roll-back", attempts: 0, reason: `${state.step} failed: ${message}` };
  }

  private async finish(state: MoveState) {
    await updateMove(
      this.env,
      state.moveId,
      state.reason ? { status: "failed", reason: state.reason } : { status: "done" },
    );
    await this.ctx.storage.deleteAll();
  }

  private async advance(
    state: MoveState,
    step: Exclude<Step, "finish">,
  ): Promise<{ state: MoveState; wait?: number }> {
    const source = shardDatabase(this.env, state.from);
    const target = shardDatabase(this.env, state.to);
    const { tenantId } = state;
    switch (step) {
      case "begin":
        await beginCapture(source, target, tenantId);
        return { state: { ...state, step: "copy" } };
      case "copy": {
        const table = copiedTables[state.table];
        if (!table) return { state: { ...state, step: "catch-up" } };
        if (state.fault === "copying" && state.rowsCopied > 0)
          throw new InjectedFault("injected fault while copying");
        const chunk = await copyChunk(source, target, tenantId, table, state.cursor);
        const rowsCopied = state.rowsCopied + chunk.rows;
        await updateMove(this.env, state.moveId, { rowsCopied });
        return chunk.rows < CHUNK
          ? { state: { ...state, rowsCopied, table: state.table + 1, cursor: 0 } }
          : { state: { ...state, rowsCopied, cursor: chunk.cursor } };
      }
      case "catch-up": {
        // Before the fence the source still changes, so a pass may read a child without its new parent:
        // the fenced replay does what a failed pass could not.
        const replayed = await replayChanges(source, target, tenantId).catch(() => 0);
        const passes = state.passes + 1;
        if (replayed === CHUNK && passes < CATCH_UP_PASSES) return { state: { ...state, passes } };
        await setStage(source, tenantId, "draining");
        return { state: { ...state, passes, step: "drain", drainingSince: Date.now() } };
      }
      case "drain": {
        const pending = await claimsInFlight(source, tenantId);
        if (pending > 0 && Date.now() - state.drainingSince < DRAIN_MS) return { state, wait: 100 };
        await setStage(source, tenantId, "fenced");
        await updateMove(this.env, state.moveId, { status: "verifying" });
        return { state: { ...state, step: "replay" } };
      }
      case "replay": {
        const replayed = await replayChanges(source, target, tenantId);
        return replayed > 0 ? { state } : { state: { ...state, step: "verify" } };
      }
      case "verify": {
        if (state.fault === "verifying") await loseOneRow(target, tenantId);
        const mismatch = await verifyCopy(source, target, tenantId);
        if (mismatch)
          return { state: { ...state, step: "roll-back", reason: `verification failed: ${mismatch}` } };
        return { state: { ...state, step: "switch" } };
      }
      case "switch": {
        if (!(await switchDirectory(this.env, state))) {
          return {
            state: {
              ...state,
              step: "roll-back",
              reason: "the directory no longer places the tenant on the source",
            },
          };
        }
        await setStage(source, tenantId, "deleting");
        return { state: { ...state, step: "delete" }, wait: SWITCH_GRACE_MS };
      }
      case "delete": {
        const limit = CHUNK * 10;
        const deleted = await deleteTenantRows(source, tenantId, limit);
        if (deleted === limit) return { state };
        // The fence stays: a request still holding the old placement can never write here again.
        await setStage(source, tenantId, "fenced");
        return { state: { ...state, step: "finish" } };
      }
      case "roll-back":
        await deleteTenantRows(target, tenantId, Number.POSITIVE_INFINITY);
        await endCapture(source, tenantId);
        return { state: { ...state, step: "finish" } };
    }
  }
}

/** The `verifying` fault: the copy loses a ledger row, as a lost write would, and verification must see it. */
async function loseOneRow(target: D1Database, tenantId: string) {
  await target
    .prepare(
      "delete from stock_movements where rowid in (select rowid from stock_movements where tenant_id = ?1 limit 1)",
    )
    .bind(tenantId)
    .run();
}
