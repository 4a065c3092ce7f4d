package io.github.leanscrape.recording.servlet;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.http.server.observation.ServerRequestObservationConvention;

/**
 * The context of a request that {@link ServerRequestMetricsFilter} records without
 * Micrometer's observation.
 * <p>
 * Its convention's key values are derived only when something reads or removes them:
 * during the request as they were at the start (method, URL, status then, no path
 * pattern, no error), under those added since; once recorded, as an observation's stop
 * leaves them, with the contextual name, kept at the end since the container may recycle
 * the request and response.
 *
 * @author leanscrape
 */
final class RecordedRequestContext extends ServerRequestObservationContext {

	private final ServerRequestObservationConvention convention;

	private final int statusAtStart;

	/**
	 * Volatile, as the fields below: a request's context may be read and written on any
	 * thread that carries its observation.
	 */
	private volatile boolean startKeyValuesAdded;

	/**
	 * Whether any low-cardinality key value was added: by anyone, or those of the start.
	 */
	private volatile boolean lowCardinalityAdded;

	/** The convention at the end, once the request is recorded. */
	private volatile @Nullable ServerRequestObservationConvention endConvention;

	private volatile boolean endKeyValuesAdded;

	private @Nullable String methodAtEnd;

	private @Nullable String uriAtEnd;

	private int statusAtEnd;

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

	/**
	 * Mark the request recorded: from now on the key values read are those an
	 * observation's stop leaves.
	 * @param convention the convention that decided the request's tags
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	void stop(ObservationConvention<? extends Observation.Context> convention) {
		HttpServletRequest request = getCarrier();
		HttpServletResponse response = getResponse();
		if (request != null && response != null) {
			// What the convention reads of them, while they are still this request's.
			this.methodAtEnd = request.getMethod();
			this.uriAtEnd = request.getRequestURI();
			this.statusAtEnd = response.getStatus();
		}
		this.endConvention = (ServerRequestObservationConvention) (ObservationConvention) convention;
	}

	@Override
	public @Nullable String getContextualName() {
		addKeyValues();
		return super.getContextualName();
	}

	@Override
	public Observation.Context addLowCardinalityKeyValue(KeyValue keyValue) {
		this.lowCardinalityAdded = true;
		return super.addLowCardinalityKeyValue(keyValue);
	}

	@Override
	public Observation.Context removeLowCardinalityKeyValue(String keyName) {
		addKeyValues();
		return super.removeLowCardinalityKeyValue(keyName);
	}

	@Override
	public Observation.Context removeHighCardinalityKeyValue(String keyName) {
		addKeyValues();
		return super.removeHighCardinalityKeyValue(keyName);
	}

	@Override
	public Observation.Context removeLowCardinalityKeyValues(String... keyNames) {
		addKeyValues();
		return super.removeLowCardinalityKeyValues(keyNames);
	}

	@Override
	public Observation.Context removeHighCardinalityKeyValues(String... keyNames) {
		addKeyValues();
		return super.removeHighCardinalityKeyValues(keyNames);
	}

	@Override
	public KeyValues getLowCardinalityKeyValues() {
		addKeyValues();
		return super.getLowCardinalityKeyValues();
	}

	@Override
	public KeyValues getHighCardinalityKeyValues() {
		addKeyValues();
		return super.getHighCardinalityKeyValues();
	}

	@Override
	public @Nullable KeyValue getLowCardinalityKeyValue(String key) {
		addKeyValues();
		return super.getLowCardinalityKeyValue(key);
	}

	@Override
	public @Nullable KeyValue getHighCardinalityKeyValue(String key) {
		addKeyValues();
		return super.getHighCardinalityKeyValue(key);
	}

	@Override
	public KeyValues getAllKeyValues() {
		addKeyValues();
		return super.getAllKeyValues();
	}

	/**
	 * Add the convention's key values an observation's context would hold by now: those
	 * of the start during the request, those of the end after it. Each is derived once.
	 */
	private void addKeyValues() {
		ServerRequestObservationConvention end = this.endConvention;
		if (end != null) {
			if (!this.endKeyValuesAdded) {
				synchronized (this) {
					if (!this.endKeyValuesAdded) {
						addEndKeyValues(end);
						this.endKeyValuesAdded = true;
					}
				}
			}
			return;
		}
		if (!this.startKeyValuesAdded) {
			synchronized (this) {
				if (!this.startKeyValuesAdded) {
					addStartKeyValues();
					this.startKeyValuesAdded = true;
				}
			}
		}
	}

	/**
	 * Add what an observation's stop adds: the convention's key values at the end over
	 * those in the context, and its contextual name; derived from the request as it was
	 * when recorded.
	 * @param convention the convention that decided the request's tags
	 */
	private void addEndKeyValues(ServerRequestObservationConvention convention) {
		HttpServletRequest request = getCarrier();
		HttpServletResponse response = getResponse();
		String method = this.methodAtEnd;
		if (request == null || response == null || method == null) {
			return;
		}
		ServerRequestObservationContext atEnd = new ServerRequestObservationContext(
				new RequestAtEnd(request, method, this.uriAtEnd), new StatusThen(response, this.statusAtEnd));
		String name = getName();
		if (name != null) {
			atEnd.setName(name);
		}
		atEnd.setPathPattern(getPathPattern());
		Throwable error = getError();
		if (error != null) {
			atEnd.setError(error);
		}
		super.addLowCardinalityKeyValues(convention.getLowCardinalityKeyValues(atEnd));
		super.addHighCardinalityKeyValues(convention.getHighCardinalityKeyValues(atEnd));
		String contextualName = convention.getContextualName(atEnd);
		if (contextualName != null && !contextualName.isBlank()) {
			setContextualName(contextualName);
		}
	}

	/**
	 * Add the convention's key values as they were at the start, where no key value of
	 * the same key was added since: an observation adds them at its start, and later
	 * additions replace them.
	 */
	private void addStartKeyValues() {
		HttpServletRequest request = getCarrier();
		HttpServletResponse response = getResponse();
		if (request == null || response == null) {
			return;
		}
		ServerRequestObservationContext atStart = new ServerRequestObservationContext(request,
				(response.getStatus() != this.statusAtStart) ? new StatusThen(response, this.statusAtStart) : response);
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
	 * The request as it was when recorded: what the convention reads of it.
	 */
	private static final class RequestAtEnd extends HttpServletRequestWrapper {

		private final String method;

		private final @Nullable String uri;

		RequestAtEnd(HttpServletRequest request, String method, @Nullable String uri) {
			super(request);
			this.method = method;
			this.uri = uri;
		}

		@Override
		public String getMethod() {
			return this.method;
		}

		@Override
		public @Nullable String getRequestURI() {
			return this.uri;
		}

	}

	/**
	 * The response with the status the convention saw at a given time.
	 */
	private static final class StatusThen extends HttpServletResponseWrapper {

		private final int status;

		StatusThen(HttpServletResponse response, int status) {
			super(response);
			this.status = status;
		}

		@Override
		public int getStatus() {
			return this.status;
		}

	}

}
