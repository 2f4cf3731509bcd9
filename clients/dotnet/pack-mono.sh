#!/usr/bin/env bash
# `pack-mono.sh OUTDIR`: makes Warehouse.Api.<version>.nupkg in OUTDIR with Debian's Mono and NuGet 2.8.7 (packages
# mono-complete, nuget), for machines without the .NET SDK (where `dotnet pack` of the .csproj is the way).
# mcs cannot compile against netstandard (it needs mscorlib), so this package's assembly targets .NET Framework 4.7.1
# (lib/net471: its reference assemblies, the first framework with RuntimeInformation inbox); .NET Core 2.0+ and .NET 5+
# projects take it too, with NuGet's NU1701 warning. Identity and description come from the .csproj.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
field() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" Warehouse.Api.csproj; }
refs=/usr/lib/mono/4.7.1-api
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib/net471"
mcs -langversion:7.2 -target:library -nologo -warnaserror+ -nostdlib -noconfig \
  -r:"$refs/mscorlib.dll" -r:"$refs/System.dll" -r:"$refs/System.Core.dll" -r:"$refs/System.Net.Http.dll" \
  -doc:"$stage/lib/net471/Warehouse.Api.xml" -nowarn:1591 \
  -out:"$stage/lib/net471/Warehouse.Api.dll" src/*.cs src/Generated/*.cs
cp README.md "$stage/"
cat >"$stage/Warehouse.Api.nuspec" <<NUSPEC
<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">
  <metadata>
    <id>$(field PackageId)</id>
    <version>$(field Version)</version>
    <authors>$(field Authors)</authors>
    <description>$(field Description)</description>
    <tags>$(field PackageTags | tr ';' ' ')</tags>
    <frameworkAssemblies>
      <frameworkAssembly assemblyName="System.Net.Http" targetFramework="net471" />
    </frameworkAssemblies>
  </metadata>
  <files>
    <file src="lib/net471/*" target="lib/net471" />
    <file src="README.md" target="" />
  </files>
</package>
NUSPEC
nuget pack "$stage/Warehouse.Api.nuspec" -BasePath "$stage" -OutputDirectory "$out" -NonInteractive
