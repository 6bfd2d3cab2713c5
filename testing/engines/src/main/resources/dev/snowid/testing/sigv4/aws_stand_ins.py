#!/usr/bin/env python3
"""Test-only stand-ins for AWS, for snowid's IAM signing tests.

One process serves, each on its own loopback port:
  * a verifying proxy: recomputes every request's SigV4 signature with botocore's SigV4Auth, from
    the credentials it knows, over the method, path, query, signed headers and body bytes exactly
    as they arrived; a request that does not verify gets 403 with the reason (as API Gateway
    does) and never reaches the upstream. A verified one is forwarded to the upstream (the real
    local runner) with the upstream's bearer secret, and answered with the verified caller in
    the X-Verified-Caller header.
  * the ECS container credentials endpoint (AWS_CONTAINER_CREDENTIALS_FULL_URI);
  * EC2's instance metadata service, IMDSv2 only: every GET needs the token from PUT /latest/api/token.
Both credential endpoints issue fresh credentials on every call, valid for --ttl seconds; the proxy
refuses a request signed with credentials past their expiry.
Credentials the proxy knows: --key AKID:SECRET:ARN (static: environment, profile file), those the
stand-ins issued, and (with --moto URL) those moto's STS issued, read from moto's state.

It prints one line, READY {json of ports}, when every server listens, then serves until its
standard input closes (so it never outlives the JVM that started it).
GET /__stand-ins/stats on the proxy's port answers what happened, one fact a line ("name value").
"""
import argparse
import datetime
import hashlib
import json
import secrets
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

MAX_DATE_SKEW_SECONDS = 300  # API Gateway's limit: a request dated more than 5 minutes off is refused
ACCOUNT = "123456789012"
LOCK = threading.Lock()
KEYS = {}  # access key id -> {"secret", "token", "arn", "expires" (epoch seconds or None), "source"}
STATS = {"verified": 0, "rejected": [], "keys_used": {}, "issued": {"container": 0, "imds": 0},
         "imds_tokens": 0, "imds_refused_without_token": 0, "forwarded_paths": []}
ARGS = None


def utcnow():
    return datetime.datetime.now(datetime.timezone.utc)


def issue(source, role):
    """Fresh credentials, known to the proxy from now on."""
    akid = "ASIA" + secrets.token_hex(8).upper()
    secret = secrets.token_urlsafe(30)
    token = secrets.token_urlsafe(60)
    expires = utcnow() + datetime.timedelta(seconds=ARGS.ttl)
    arn = "arn:aws:sts::%s:assumed-role/%s/%s" % (ACCOUNT, role, akid)
    with LOCK:
        KEYS[akid] = {"secret": secret, "token": token, "arn": arn, "expires": expires.timestamp(), "source": source}
        STATS["issued"][source] += 1
    return {"AccessKeyId": akid, "SecretAccessKey": secret, "Token": token,
            "Expiration": expires.strftime("%Y-%m-%dT%H:%M:%SZ"), "RoleArn": "arn:aws:iam::%s:role/%s" % (ACCOUNT, role)}


def moto_key(akid):
    """Credentials moto's STS handed out (AssumeRoleWithWebIdentity), from its state dump."""
    if not ARGS.moto:
        return None
    with urllib.request.urlopen(ARGS.moto.rstrip("/") + "/moto-api/data.json", timeout=10) as answer:
        state = json.load(answer)
    for role in (state.get("sts") or {}).get("AssumedRole", []):
        if role.get("access_key_id") == akid:
            return {"secret": role["secret_access_key"], "token": role["session_token"], "arn": role["arn"],
                    "expires": None, "source": "moto-sts"}
    return None


def stats_text():
    with LOCK:
        lines = ["verified %d" % STATS["verified"], "imds_tokens %d" % STATS["imds_tokens"],
                 "imds_refused_without_token %d" % STATS["imds_refused_without_token"]]
        lines += ["issued %s %d" % item for item in STATS["issued"].items()]
        lines += ["key_used %s %d %s" % (akid, count, KEYS[akid]["arn"]) for akid, count in STATS["keys_used"].items()]
        lines += ["forwarded %s" % path for path in STATS["forwarded_paths"]]
        lines += ["rejected %s" % reason.replace("\n", " ") for reason in STATS["rejected"]]
    return "\n".join(lines) + "\n"


class Refused(Exception):
    pass


def parse_authorization(value):
    if not value or not value.startswith("AWS4-HMAC-SHA256 "):
        raise Refused("Missing Authentication Token: no AWS4-HMAC-SHA256 Authorization header")
    fields = {}
    for part in value[len("AWS4-HMAC-SHA256 "):].split(","):
        name, _, content = part.strip().partition("=")
        fields[name] = content
    try:
        akid, date, region, service, terminator = fields["Credential"].split("/")
        return akid, date, region, service, terminator, fields["SignedHeaders"].split(";"), fields["Signature"]
    except (KeyError, ValueError):
        raise Refused("Authorization header is malformed: %r" % value)


def verify(method, raw_path, headers, body):
    """The caller's ARN, or Refused with API Gateway's kind of reason."""
    akid, date, region, service, terminator, signed_headers, signature = parse_authorization(headers.get("Authorization"))
    if service != ARGS.service or region != ARGS.region or terminator != "aws4_request":
        raise Refused("Credential should be scoped to %s/%s, not %s/%s" % (ARGS.region, ARGS.service, region, service))
    with LOCK:
        key = KEYS.get(akid)
    if key is None:
        key = moto_key(akid)
        if key is not None:
            with LOCK:
                KEYS[akid] = key
    if key is None:
        raise Refused("The security token included in the request is invalid: unknown access key %s" % akid)
    if key["expires"] is not None and utcnow().timestamp() >= key["expires"]:
        raise Refused("The security token included in the request is expired (%s, %s)" % (akid, key["source"]))
    amz_date = headers.get("X-Amz-Date")
    if not amz_date:
        raise Refused("no X-Amz-Date header")
    signed_at = datetime.datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
    if abs((utcnow() - signed_at).total_seconds()) > MAX_DATE_SKEW_SECONDS:
        raise Refused("Signature expired: %s is more than 5 minutes from now" % amz_date)
    if date != amz_date[:8]:
        raise Refused("Credential date %s is not the X-Amz-Date's %s" % (date, amz_date))
    if "host" not in signed_headers or "x-amz-date" not in signed_headers:
        raise Refused("SignedHeaders must include host and x-amz-date, has %s" % signed_headers)
    if key["token"] is not None and headers.get("X-Amz-Security-Token") != key["token"]:
        raise Refused("The security token included in the request is invalid: the session token does not match")
    if key["token"] is not None and "x-amz-security-token" not in signed_headers:
        raise Refused("x-amz-security-token is not signed")
    # Only the headers the caller signed, with the values that arrived; the body as it arrived.
    arrived = {}
    for name in signed_headers:
        values = headers.get_all(name)
        if values is None:
            raise Refused("signed header %s did not arrive" % name)
        arrived[name] = ",".join(v.strip() for v in values)
    if "x-amz-content-sha256" in arrived:
        # botocore would take the declared hash for the payload's: use that of the bytes that arrived.
        arrived["x-amz-content-sha256"] = hashlib.sha256(body).hexdigest()
    request = AWSRequest(method=method, url="http://" + arrived["host"] + raw_path, data=body, headers=arrived)
    request.context["timestamp"] = amz_date
    auth = SigV4Auth(Credentials(akid, key["secret"], key["token"]), ARGS.service, ARGS.region)
    canonical = auth.canonical_request(request)
    expected = auth.signature(auth.string_to_sign(request, canonical), request)
    if not secrets.compare_digest(expected, signature):
        raise Refused("The request signature we calculated does not match the signature you provided. "
                      "The Canonical String for this request should have been\n" + canonical)
    with LOCK:
        STATS["verified"] += 1
        STATS["keys_used"][akid] = STATS["keys_used"].get(akid, 0) + 1
    return key["arn"]


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path == "/__stand-ins/stats":
            return self.answer(200, stats_text().encode(), [("Content-Type", "text/plain; charset=utf-8")])
        try:
            caller = verify(self.command, self.path, self.headers, body)
        except Refused as refused:
            with LOCK:
                STATS["rejected"].append("%s %s: %s" % (self.command, self.path, str(refused).split("\n")[0]))
            return self.answer(403, {"message": str(refused)}, [("Content-Type", "application/json"), ("x-amzn-ErrorType", "InvalidSignatureException")])
        with LOCK:
            STATS["forwarded_paths"].append(self.command + " " + self.path)
        forward = urllib.request.Request(ARGS.upstream.rstrip("/") + self.path, data=body if body or self.command in ("POST", "PUT") else None,
                                         method=self.command)
        for name in ("Content-Type", "Accept"):
            if self.headers.get(name):
                forward.add_header(name, self.headers.get(name))
        forward.add_header("Authorization", "Bearer " + ARGS.upstream_secret)
        try:
            with urllib.request.urlopen(forward, timeout=30) as answer:
                status, data, upstream_headers = answer.status, answer.read(), answer.headers
        except urllib.error.HTTPError as error:
            status, data, upstream_headers = error.code, error.read(), error.headers
        except urllib.error.URLError as error:
            return self.answer(502, {"message": "upstream unreachable: %s" % error})
        passed = [(n, v) for n, v in upstream_headers.items() if n.lower() in ("content-type", "date", "retry-after")]
        self.answer(status, data, passed + [("X-Verified-Caller", caller)])

    do_GET = do_POST = do_PUT = do_DELETE = handle_any


class ContainerEndpoint(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path != "/credentials":
            self.send_error(404)
            return
        if ARGS.container_token and self.headers.get("Authorization") != ARGS.container_token:
            self.send_error(401)
            return
        data = json.dumps(issue("container", "snowid-ecs-task")).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Imds(BaseHTTPRequestHandler):
    """IMDSv2: a session token from PUT, required by every GET."""
    protocol_version = "HTTP/1.1"
    ROLE = "snowid-ec2-role"
    TOKENS = set()

    def log_message(self, *args):
        pass

    def send(self, status, text, content_type="text/plain"):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_PUT(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if self.path != "/latest/api/token" or not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
            return self.send(400, "bad token request")
        token = secrets.token_urlsafe(32)
        with LOCK:
            Imds.TOKENS.add(token)
            STATS["imds_tokens"] += 1
        self.send(200, token)

    def do_GET(self):
        with LOCK:
            known = self.headers.get("X-aws-ec2-metadata-token") in Imds.TOKENS
            if not known:
                STATS["imds_refused_without_token"] += 1
        if not known:
            return self.send(401, "IMDSv2 only: PUT /latest/api/token first")
        base = "/latest/meta-data/iam/security-credentials/"
        if self.path == base:
            return self.send(200, Imds.ROLE)
        if self.path == base + Imds.ROLE:
            credentials = issue("imds", Imds.ROLE)
            credentials.update({"Code": "Success", "Type": "AWS-HMAC",
                                "LastUpdated": utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")})
            del credentials["RoleArn"]
            return self.send(200, json.dumps(credentials), "application/json")
        self.send(404, "not found")


def serve(handler):
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True, help="where verified requests go: the local runner's base URL")
    parser.add_argument("--upstream-secret", required=True, help="the upstream's bearer secret")
    parser.add_argument("--region", required=True)
    parser.add_argument("--service", default="execute-api")
    parser.add_argument("--key", action="append", default=[], help="AKID:SECRET:ARN, static credentials the proxy knows")
    parser.add_argument("--moto", help="moto_server's URL: its STS's credentials are known too")
    parser.add_argument("--ttl", type=int, default=3600, help="seconds the stand-ins' credentials are valid")
    parser.add_argument("--container-token", help="the Authorization the container endpoint requires")
    ARGS = parser.parse_args()
    for spec in ARGS.key:
        akid, secret, arn = spec.split(":", 2)
        KEYS[akid] = {"secret": secret, "token": None, "arn": arn, "expires": None, "source": "static"}
    ports = {"proxy": serve(Proxy), "container": serve(ContainerEndpoint), "imds": serve(Imds)}
    print("READY " + json.dumps(ports), flush=True)
    sys.stdin.read()  # until the JVM closes the pipe, or dies


if __name__ == "__main__":
    main()
