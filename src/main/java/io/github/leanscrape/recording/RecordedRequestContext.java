package io.github.leanscrape.recording;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.http.server.observation.ServerRequestObservationConvention;

/**
 * The context of a request that {@link ServerRequestMetricsFilter} records without
 * Micrometer's observation.
 * <p>
 * A started observation's context holds its convention's key values as they were at the
 * start. Deriving them on every request costs what recording without an observation
 * saves, and only code that reads the context's key values during the request could tell
 * them missing. So they are derived the first time anything reads or removes the
 * context's key values, as they were at the start (the request's method and URL, the
 * status the response had then, no path pattern, no error), under those added since.
 *
 * @author leanscrape
 */
final class RecordedRequestContext extends ServerRequestObservationContext {

	private final ServerRequestObservationConvention convention;

	private final int statusAtStart;

	private boolean startKeyValuesAdded;

	/**
	 * Whether any low-cardinality key value was added: by anyone, or those of the start.
	 */
	private boolean lowCardinalityAdded;

	private @Nullable RequestObservation observation;

	RecordedRequestContext(HttpServletRequest request, HttpServletResponse response,
			ServerRequestObservationConvention convention) {
		super(request, response);
		this.convention = convention;
		this.statusAtStart = response.getStatus();
	}

	/**
	 * Return the observation that records the request.
	 * @return the observation, or {@code null} before it is made
	 */
	@Nullable RequestObservation observation() {
		return this.observation;
	}

	void recordedBy(RequestObservation observation) {
		this.observation = observation;
	}

	/**
	 * Return whether the context holds low-cardinality key values: then they decide the
	 * request's tags with the convention's, as an observation's context does.
	 * @return {@code false} when nothing added any
	 */
	boolean hasLowCardinalityKeyValues() {
		return this.lowCardinalityAdded;
	}

	@Override
	public Observation.Context addLowCardinalityKeyValue(KeyValue keyValue) {
		this.lowCardinalityAdded = true;
		return super.addLowCardinalityKeyValue(keyValue);
	}

	@Override
	public Observation.Context removeLowCardinalityKeyValue(String keyName) {
		addStartKeyValues();
		return super.removeLowCardinalityKeyValue(keyName);
	}

	@Override
	public Observation.Context removeHighCardinalityKeyValue(String keyName) {
		addStartKeyValues();
		return super.removeHighCardinalityKeyValue(keyName);
	}

	@Override
	public Observation.Context removeLowCardinalityKeyValues(String... keyNames) {
		addStartKeyValues();
		return super.removeLowCardinalityKeyValues(keyNames);
	}

	@Override
	public Observation.Context removeHighCardinalityKeyValues(String... keyNames) {
		addStartKeyValues();
		return super.removeHighCardinalityKeyValues(keyNames);
	}

	@Override
	public KeyValues getLowCardinalityKeyValues() {
		addStartKeyValues();
		return super.getLowCardinalityKeyValues();
	}

	@Override
	public KeyValues getHighCardinalityKeyValues() {
		addStartKeyValues();
		return super.getHighCardinalityKeyValues();
	}

	@Override
	public @Nullable KeyValue getLowCardinalityKeyValue(String key) {
		addStartKeyValues();
		return super.getLowCardinalityKeyValue(key);
	}

	@Override
	public @Nullable KeyValue getHighCardinalityKeyValue(String key) {
		addStartKeyValues();
		return super.getHighCardinalityKeyValue(key);
	}

	@Override
	public KeyValues getAllKeyValues() {
		addStartKeyValues();
		return super.getAllKeyValues();
	}

	/**
	 * Add the convention's key values as they were at the start, where no key value of
	 * the same key was added since: an observation adds them at its start, and later
	 * additions replace them.
	 */
	private void addStartKeyValues() {
		if (this.startKeyValuesAdded) {
			return;
		}
		this.startKeyValuesAdded = true;
		HttpServletRequest request = getCarrier();
		HttpServletResponse response = getResponse();
		if (request == null || response == null) {
			return;
		}
		ServerRequestObservationContext atStart = new ServerRequestObservationContext(request,
				(response.getStatus() != this.statusAtStart) ? new StatusAtStart(response, this.statusAtStart)
						: response);
		String name = getName();
		if (name != null) {
			atStart.setName(name);
		}
		for (KeyValue keyValue : this.convention.getLowCardinalityKeyValues(atStart)) {
			if (super.getLowCardinalityKeyValue(keyValue.getKey()) == null) {
				addLowCardinalityKeyValue(keyValue);
			}
		}
		for (KeyValue keyValue : this.convention.getHighCardinalityKeyValues(atStart)) {
			if (super.getHighCardinalityKeyValue(keyValue.getKey()) == null) {
				addHighCardinalityKeyValue(keyValue);
			}
		}
	}

	/**
	 * The response as the convention saw it at the start.
	 */
	private static final class StatusAtStart extends HttpServletResponseWrapper {

		private final int status;

		StatusAtStart(HttpServletResponse response, int status) {
			super(response);
			this.status = status;
		}

		@Override
		public int getStatus() {
			return this.status;
		}

	}

}
