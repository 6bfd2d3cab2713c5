/**
 * The region plan ({@code infra/regions.toml}): which stack deploys where with which block, checked
 * whole before anything deploys. An operator's concern, so it lives apart from {@code core}, which
 * apps embed: only the function jar's region command and the agent's {@code decode --plan} read it.
 */
package dev.snowid.region.plan;
