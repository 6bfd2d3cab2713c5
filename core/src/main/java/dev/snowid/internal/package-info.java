/**
 * Rules the other snowid modules share with core, which are not part of snowid's API: they may
 * change in any release. Users call {@code dev.snowid} and {@code dev.snowid.lease}.
 */
package dev.snowid.internal;

