package io.github.leanscrape.exposition.direct;

/**
 * Why the direct path leaves work to the reference path: a whole scrape, or the families
 * of one Prometheus name (or of collectors registered outside Micrometer) inside a direct
 * scrape. Each is counted by its text, for the cardinality report, and logged once per
 * renderer with what the user can do about it: at warn level, but for the collectors
 * registered outside Micrometer, which the reference path writes by design.
 *
 * @author leanscrape
 */
enum FallbackReason {

	/**
	 * The registry that is scraped is not the one behind the meter registry: the direct
	 * path cannot tell what it holds.
	 */
	SCRAPED_REGISTRY_NOT_THE_METER_REGISTRYS(Scope.WHOLE_SCRAPE, "the scraped registry is not the meter registry's",
			"make the PrometheusRegistry bean the one the PrometheusMeterRegistry bean was built with, "
					+ "or set leanscrape.direct.enabled=false: no scrape can be direct"),

	/**
	 * The collectors of the registries cannot be read by reflection (another Micrometer
	 * or client_java version, or a native image without the starter's runtime hints).
	 */
	INTERNALS_NOT_VISIBLE(Scope.WHOLE_SCRAPE, "registry internals not visible",
			"use a Micrometer and client_java version the starter is tested with (those Spring Boot 4.0 and 4.1 "
					+ "manage), with its runtime hints in a native image, or set leanscrape.direct.enabled=false: "
					+ "no scrape can be direct"),

	/**
	 * The registry samples exemplars that the direct path cannot read: OpenMetrics and
	 * protobuf scrapes go to the reference path.
	 */
	EXEMPLARS_NOT_READABLE(Scope.WHOLE_SCRAPE, "exemplars that cannot be read from the meters",
			"use a Micrometer and client_java version the starter is tested with (those Spring Boot 4.0 and 4.1 "
					+ "manage)"),

	/**
	 * The created timestamps of a family's series could not be learned from its
	 * collector.
	 */
	CREATED_TIMESTAMPS_NOT_READABLE(Scope.WHOLE_SCRAPE, "created timestamps that cannot be read",
			"nothing if it is rare: a meter was removed and added again while the scrape read it; if it "
					+ "keeps happening, use a Micrometer version the starter is tested with"),

	/**
	 * A family that more than one collector writes, which client_java fails or merges.
	 */
	FAMILY_OF_MORE_THAN_ONE_SOURCE(Scope.WHOLE_SCRAPE, "a family fed by more than one source",
			"rename the meters or collectors so that only one writes the family"),

	/**
	 * The meter registry's collectors cannot be told apart from the others in the
	 * Prometheus registry: another meter registry on it, or a meter added or removed
	 * while the scrape read them.
	 */
	COLLECTORS_NOT_TOLD_APART(Scope.WHOLE_SCRAPE, "collectors not told apart",
			"give each PrometheusMeterRegistry a PrometheusRegistry of its own; nothing if it is rare "
					+ "(a meter added or removed while the scrape read the collectors)"),

	/**
	 * Collectors registered in the Prometheus registry outside Micrometer, whose families
	 * only client_java can write.
	 */
	COLLECTORS_OUTSIDE_MICROMETER(Scope.FAMILY, "collectors registered outside Micrometer",
			"nothing: this is by design, only client_java can write them"),

	/**
	 * A Prometheus name that client_java would escape (a base unit with a slash, a
	 * character outside the legacy names).
	 */
	NAME_ESCAPED(Scope.FAMILY, "names client_java would escape",
			"nothing: the reference path writes them exactly; a name of letters, digits, underscores and colons "
					+ "(a base unit without a slash) would be written directly"),

	/**
	 * A tag whose label name client_java would escape or quote.
	 */
	LABEL_NAME_ESCAPED(Scope.FAMILY, "label names client_java would escape",
			"nothing: the reference path writes them exactly; tag keys of letters, digits and underscores "
					+ "would be written directly"),

	/**
	 * A tag named like the label the meter's families add to every series.
	 */
	RESERVED_LABEL(Scope.FAMILY, "tags named like a label their family adds (le, quantile, statistic)",
			"rename the tag"),

	/**
	 * Tag keys, or series, whose labels become the same after the naming convention.
	 */
	TAG_KEYS_COLLIDE(Scope.FAMILY, "tag keys that collide after naming",
			"rename the tags so that no two become the same label (a.b and a_b both become a_b)"),

	/**
	 * Meters of one Prometheus name that differ in name, type, description, tag keys,
	 * histogram layout or statistics.
	 */
	METERS_DISAGREE(Scope.FAMILY, "meters of one name that disagree",
			"register the meters of one name alike: same type, description, tag keys and histogram settings"),

	/**
	 * A family name that the meters of another Prometheus name feed too.
	 */
	FAMILY_NAME_TAKEN(Scope.FAMILY, "a family name that meters of another name feed too", "rename one of the meters"),

	/**
	 * Custom meters on a Micrometer that reads the clock for their counters' created
	 * timestamps at every scrape.
	 */
	CUSTOM_METERS_BEFORE_1_16_7(Scope.FAMILY, "custom meters on Micrometer before 1.16.7/1.17.1",
			"upgrade Micrometer to 1.16.7, 1.17.1 or later"),

	/**
	 * Meters the direct path does not write (a custom meter of no measurement).
	 */
	METER_NOT_WRITTEN_DIRECTLY(Scope.FAMILY, "meters the direct path does not write", "nothing: this is by design"),

	/**
	 * A meter whose exemplar sampler is not what the direct path expects.
	 */
	METER_EXEMPLARS_NOT_READABLE(Scope.FAMILY, "meters whose exemplars cannot be read",
			"use a Micrometer and client_java version the starter is tested with (those Spring Boot 4.0 and 4.1 "
					+ "manage)");

	private final Scope scope;

	private final String text;

	private final String remedy;

	FallbackReason(Scope scope, String text, String remedy) {
		this.scope = scope;
		this.text = text;
		this.remedy = remedy;
	}

	/**
	 * Return whether the reason sends whole scrapes to the reference path, rather than
	 * families inside a direct scrape.
	 * @return {@code true} for whole scrapes
	 */
	boolean isWholeScrape() {
		return this.scope == Scope.WHOLE_SCRAPE;
	}

	/**
	 * Return whether the reason is worth a warning: all but the collectors registered
	 * outside Micrometer, which the reference path writes by design.
	 * @return {@code true} when logged at warn level, {@code false} at info level
	 */
	boolean warns() {
		return this != COLLECTORS_OUTSIDE_MICROMETER;
	}

	/**
	 * Return the reason as it is logged and reported.
	 * @return the text
	 */
	String text() {
		return this.text;
	}

	/**
	 * Return what the user can do about it.
	 * @return the remedy
	 */
	String remedy() {
		return this.remedy;
	}

	@Override
	public String toString() {
		return this.text;
	}

	private enum Scope {

		WHOLE_SCRAPE, FAMILY

	}

}
