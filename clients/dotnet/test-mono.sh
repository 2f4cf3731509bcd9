#!/usr/bin/env bash
# Builds the client and its tests with Debian's Mono (mcs, C# 7.2) and runs the tests: the .NET SDK cannot be
# installed on the machines this repository is tested on. The .csproj (netstandard2.0) is what NuGet packs.
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mcs -langversion:7.2 -target:library -nologo -warnaserror+ -out:"$out/Warehouse.Api.dll" \
  -r:System.Net.Http.dll src/*.cs src/Generated/*.cs
mcs -langversion:7.2 -nologo -out:"$out/Warehouse.Api.Tests.exe" \
  -r:"$out/Warehouse.Api.dll" -r:System.Net.Http.dll tests/*.cs
mono "$out/Warehouse.Api.Tests.exe"
