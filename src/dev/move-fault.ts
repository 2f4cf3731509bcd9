// Apart from fault-injection.ts (which reads the bindings): the mover, whose class the bindings name, takes a fault.

/** A failure a tenant move is asked for (`move=copying|verifying`): the move fails in this phase. */
export type MoveFault = "copying" | "verifying";
