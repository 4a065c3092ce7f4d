package io.github.leanscrape.reuse;

/**
 * How much of what is kept a rendering that waits for memory asks {@link KeptBodies} to
 * give back, each step more than the one before.
 *
 * @author leanscrape
 */
public enum Shed {

	/** The bodies and forms kept for every kind but the rendering's. */
	OTHER_KINDS,

	/** Everything, the rendering's own kind included. */
	EVERYTHING

}
