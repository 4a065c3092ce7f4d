package io.github.leanscrape.recording;

import io.micrometer.common.KeyValues;

/**
 * What a request observation convention derived for one combination of path pattern,
 * method, status and error: its low-cardinality key values and contextual name.
 *
 * @author leanscrape
 */
final class DerivedKeyValues {

	final KeyValues lowCardinalityKeyValues;

	final String contextualName;

	DerivedKeyValues(KeyValues lowCardinalityKeyValues, String contextualName) {
		this.lowCardinalityKeyValues = lowCardinalityKeyValues;
		this.contextualName = contextualName;
	}

}
