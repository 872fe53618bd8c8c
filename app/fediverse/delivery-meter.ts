import type { FederationOptions } from "@fedify/fedify";
import type { FediverseDeliveryOutcome } from "~/metrics/record.server";

type MeterProvider = NonNullable<FederationOptions<void>["meterProvider"]>;

/**
 * Fedify reports what becomes of each delivery through OpenTelemetry's metrics API. This meter provider
 * takes the two instruments that say it, and nothing else: each try sent (`activitypub.delivery.sent`,
 * delivered or failed) and each put back or given up on (`activitypub.outbox.activity`). Their other
 * attributes (the follower's host above all) are dropped, so no series is added per follower or sender.
 */
export function deliveryMeter(report: (outcome: FediverseDeliveryOutcome) => void): MeterProvider {
  const ignored = new Proxy({}, { get: () => () => undefined });
  const meter = new Proxy(
    {},
    {
      get: (_target, method) => (name: string) => {
        if (method !== "createCounter") return ignored;
        if (name === "activitypub.delivery.sent") {
          return {
            add: (_n: number, attributes?: Record<string, unknown>) =>
              report(attributes?.["activitypub.delivery.success"] ? "delivered" : "failed"),
          };
        }
        if (name === "activitypub.outbox.activity") {
          return {
            add: (_n: number, attributes?: Record<string, unknown>) => {
              const result = attributes?.["activitypub.processing.result"];
              if (result === "retried") report("retried");
              else if (result === "abandoned") report("given_up");
            },
          };
        }
        return ignored;
      },
    },
  );
  return { getMeter: () => meter } as unknown as MeterProvider;
}
