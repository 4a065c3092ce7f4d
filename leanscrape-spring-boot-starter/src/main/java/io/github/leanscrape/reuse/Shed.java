package io.github.leanscrape.reuse;

/**
 * How much of what is kept a rendering that waits for memory asks {@link KeptBodies} to
 * give back, each step more than the one before.
 *
 * @author leanscrape
 */
public enum Shed {

	/**
	 * The bodies kept for every kind but the rendering's; a kind whose gzip form was
	 * compressed by segment keeps that form, to stand in for its body.
	 */
	OTHER_KINDS_BODIES,

	/**
	 * Also the gzip forms that stand in for other kinds' bodies; those kinds rest.
	 */
	OTHER_KINDS_STAND_INS,

	/**
	 * Everything, the rendering's own kind included.
	 */
	EVERYTHING

}
