-- The wrk script of the bench (bench/harness/wrk-load.ts runs it): sends a scenario's requests in the
-- order of the file the bench wrote, one a line ("METHOD PATH", or "METHOD PATH CONTENT-TYPE BODY"
-- for a request with a body), again from the first after the last; at the end prints one line
-- "BENCH-RESULT {json}". With one thread (-t1) the sequence is the same for every server,
-- whichever connection sends.

local requests = {}
local sent = 0

-- Formatted once here, so that request() costs a table lookup while wrk measures.
function init(args)
  -- wrk's headers (the Authorization header) with each Content-Type the requests name, made once per type.
  local typed_headers = {}
  local function headers_with(content_type)
    if typed_headers[content_type] == nil then
      local headers = {}
      for name, value in pairs(wrk.headers) do headers[name] = value end
      headers["Content-Type"] = content_type
      typed_headers[content_type] = headers
    end
    return typed_headers[content_type]
  end
  for line in io.lines(args[1]) do
    local method, path, rest = line:match("^(%u+) (%S+) ?(.*)$")
    if rest == "" then
      requests[#requests + 1] = wrk.format(method, path, wrk.headers)
    else
      local content_type, body = rest:match("^(%S+) (.*)$")
      requests[#requests + 1] = wrk.format(method, path, headers_with(content_type), body)
    end
  end
end

function request()
  sent = sent % #requests + 1
  return requests[sent]
end

-- utime + stime of wrk itself, in clock ticks: read here, the last moment wrk is alive, so the
-- bench can count the load generator's CPU apart from the server's and everyone else's.
local function cpu_ticks()
  local file = io.open("/proc/self/stat")
  local stat = file:read("*a")
  file:close()
  local fields = {}
  for field in stat:match("%) (.*)$"):gmatch("%S+") do fields[#fields + 1] = field end
  return tonumber(fields[12]) + tonumber(fields[13])
end

-- Latencies from wrk's own histogram (microseconds); "status" counts the answers with a status above 399.
function done(summary, latency, _)
  local errors = summary.errors
  io.write(string.format(
    'BENCH-RESULT {"durationMicros":%d,"requests":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,' ..
      '"p50Micros":%d,"p99Micros":%d,"cpuTicks":%d}\n',
    summary.duration, summary.requests, errors.status, errors.connect, errors.read, errors.write, errors.timeout,
    latency:percentile(50), latency:percentile(99), cpu_ticks()))
end
